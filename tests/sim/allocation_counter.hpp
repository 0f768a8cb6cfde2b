#pragma once
// The sim tests' heap-allocation counter: slicer_test.cpp replaces the global
// operator new (one definition per program) to increment it; any test of the
// executable reads it around the code that must not allocate. Not under
// AddressSanitizer, which owns operator new itself.

namespace aerolin::test {
inline long g_allocations = 0;
}  // namespace aerolin::test

#if defined(__SANITIZE_ADDRESS__)
#define AEROLIN_COUNTS_ALLOCATIONS 0
#else
#define AEROLIN_COUNTS_ALLOCATIONS 1
#endif
