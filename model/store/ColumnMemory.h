#pragma once

#include <cstddef>
#include <vector>

// How the store's columns take and give back memory.
//
// Huge pages: filling a million-row table with 4 KiB pages takes tens of
// thousands of page faults, and on a virtual machine each costs
// microseconds; measured at 1M requests, faults were a third of a headless
// command's CPU. Linux gives 2 MiB pages only to memory that asks for them
// (transparent_hugepage=madvise, the common default) and only over whole,
// aligned 2 MiB, so a large column is a mapping of its own, aligned, that
// asks. Pages are still given on first touch: capacity never written costs
// address space, not memory. Small columns come from operator new, and so
// does everything in sanitizer builds (whose checks need their allocator).
//
// Slack: for the same reason a column is copied to its exact size only when
// its slack is large (growth by doubling), not for the fifth more a loader
// reserves from its estimate; that copy was a sixth of a load's time.
namespace ColumnMemory {

void *allocate(size_t bytes);
void deallocate(void *data, size_t bytes) noexcept;

// Whether this build gives large columns mappings of their own that ask for
// huge pages (Linux, no sanitizer), and from what size.
bool asksForHugePages();
inline constexpr size_t kLargeColumnBytes = size_t{4} << 20;

} // namespace ColumnMemory

template<typename T> class ColumnAllocator
{
public:
    using value_type = T;

    ColumnAllocator() noexcept = default;
    template<typename U>
    ColumnAllocator(const ColumnAllocator<U> &) noexcept // NOLINT(google-explicit-constructor): rebinding
    { }

    T *allocate(size_t count) { return static_cast<T *>(ColumnMemory::allocate(count * sizeof(T))); }
    void deallocate(T *data, size_t count) noexcept { ColumnMemory::deallocate(data, count * sizeof(T)); }

    friend bool operator==(const ColumnAllocator &, const ColumnAllocator &) { return true; }
};

// One column of a table: a std::vector whose large buffers get huge pages.
template<typename T> using ColumnVector = std::vector<T, ColumnAllocator<T>>;

namespace ColumnMemory {

// Gives back the unused capacity when it is over a quarter of the column.
template<typename T> void releaseSlack(ColumnVector<T> &column)
{
    if (column.capacity() - column.size() > column.capacity() / 4)
        column.shrink_to_fit();
}

} // namespace ColumnMemory
