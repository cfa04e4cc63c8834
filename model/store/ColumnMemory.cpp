#include "ColumnMemory.h"

#include <QtGlobal>

#include <cstdint>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define TRACELANE_SANITIZED_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer)
#define TRACELANE_SANITIZED_ALLOCATOR 1
#endif
#endif

#if defined(Q_OS_LINUX) && !defined(TRACELANE_SANITIZED_ALLOCATOR)
#define TRACELANE_HUGE_PAGE_COLUMNS 1
#include <sys/mman.h>
#endif

namespace ColumnMemory {

namespace {

#ifdef TRACELANE_HUGE_PAGE_COLUMNS
constexpr size_t kHugePage = size_t{2} << 20;
// From two huge pages up: below that, the page left partly used at the end
// would be a large share of the column.
constexpr size_t kLargeBytes = kLargeColumnBytes;
static_assert(kLargeBytes >= 2 * kHugePage);

size_t mappedBytes(size_t bytes)
{
    return (bytes + kHugePage - 1) & ~(kHugePage - 1);
}
#endif

} // namespace

bool asksForHugePages()
{
#ifdef TRACELANE_HUGE_PAGE_COLUMNS
    return true;
#else
    return false;
#endif
}

void *allocate(size_t bytes)
{
#ifdef TRACELANE_HUGE_PAGE_COLUMNS
    if (bytes >= kLargeBytes) {
        // Map one huge page more than needed, then unmap what lies before
        // the first 2 MiB boundary and after the column's last huge page.
        const size_t length = mappedBytes(bytes);
        void *raw = mmap(nullptr, length + kHugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED)
            throw std::bad_alloc();
        char *const start = static_cast<char *>(raw);
        const size_t before = (kHugePage - reinterpret_cast<uintptr_t>(raw) % kHugePage) % kHugePage;
        char *const aligned = start + before;
        if (before > 0)
            munmap(start, before);
        const size_t after = kHugePage - before;
        if (after > 0)
            munmap(aligned + length, after);
        madvise(aligned, length, MADV_HUGEPAGE); // a hint: refused, nothing changes
        return aligned;
    }
#endif
    return ::operator new(bytes);
}

void deallocate(void *data, size_t bytes) noexcept
{
#ifdef TRACELANE_HUGE_PAGE_COLUMNS
    if (bytes >= kLargeBytes) {
        munmap(data, mappedBytes(bytes));
        return;
    }
#endif
    Q_UNUSED(bytes); // sized only for the mappings above
    ::operator delete(data);
}

} // namespace ColumnMemory
