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
        const auto start = reinterpret_cast<uintptr_t>(raw);
        const auto aligned = (start + kHugePage - 1) & ~(kHugePage - 1);
        if (aligned > start)
            munmap(raw, aligned - start);
        const size_t after = start + length + kHugePage - (aligned + length);
        if (after > 0)
            munmap(reinterpret_cast<void *>(aligned + length), after);
        madvise(reinterpret_cast<void *>(aligned), length, MADV_HUGEPAGE); // a hint: refused, nothing changes
        return reinterpret_cast<void *>(aligned);
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
    ::operator delete(data, bytes);
}

} // namespace ColumnMemory
