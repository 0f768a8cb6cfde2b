#pragma once
/// @file
/// Which version of the library's vectorized loops runs: each such loop is
/// compiled twice on x86-64 with GCC, for the baseline instruction set
/// (SSE2) and for wider vectors (AVX2 for the frequency-response kernels,
/// AVX for the exact step's quadrature), neither with fused multiply-adds, so
/// both give the same numbers to the bit; the wider one runs where the
/// processor has it. The tests run both on the same inputs and compare their
/// bits (FrequencyResponse.BaselineAndAvx2KernelsGiveTheSameBits,
/// SlicerPosition.BaselineAndAvxQuadratureGiveTheSameBits), which needs a way to run the baseline on a processor that has AVX2:
/// ForceBaselineVectors.
///
///   AEROLIN_TWO_ISAS(ATTRS, RET, NAME, TARGET, CHOOSE, PARAMS, ARGS)
/// defines NAME PARAMS, which calls NAME##Body ARGS (to be defined next,
/// with ATTRS; always inlined into both versions) compiled for target TARGET
/// where core::CHOOSE() is true and for the baseline elsewhere, and
/// NAME##Chosen(), the version to run as a function pointer, for a loop
/// that chooses once (inlining both calls into a caller's loop made the
/// loop too large to inline: the Bode sweep's batches of lanes, 6 % slower).

#include <atomic>

namespace aerolin::core {
namespace vector_isa_detail {
#if defined(__GNUC__) && defined(__x86_64__)
// __builtin_cpu_init first: these may be initialized before libgcc's own
// constructor has read the processor's features.
inline const bool kHasAvx2 = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") != 0;
}();
inline const bool kHasAvx = [] {
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx") != 0;
}();
#else
inline const bool kHasAvx2 = false;
inline const bool kHasAvx = false;
#endif
inline std::atomic<bool> forced{false};
}  // namespace vector_isa_detail

/// True where the processor has AVX2 and the baseline is not forced.
inline bool UseAvx2() {
  return vector_isa_detail::kHasAvx2 && !vector_isa_detail::forced.load(std::memory_order_relaxed);
}
/// True where the processor has AVX and the baseline is not forced.
inline bool UseAvx() {
  return vector_isa_detail::kHasAvx && !vector_isa_detail::forced.load(std::memory_order_relaxed);
}
/// Runs the baseline versions whatever the processor (true) or lets it
/// choose again (false). For tests; a process-wide switch.
inline void ForceBaselineVectors(bool on) { vector_isa_detail::forced.store(on, std::memory_order_relaxed); }

}  // namespace aerolin::core

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define AEROLIN_TWO_ISAS(ATTRS, RET, NAME, TARGET, CHOOSE, PARAMS, ARGS)                               \
  ATTRS [[gnu::always_inline]] inline RET NAME##Body PARAMS;                                           \
  ATTRS __attribute__((target(TARGET))) RET NAME##Wide PARAMS { return NAME##Body ARGS; }              \
  ATTRS RET NAME##Baseline PARAMS { return NAME##Body ARGS; }                                          \
  inline RET NAME PARAMS { return ::aerolin::core::CHOOSE() ? NAME##Wide ARGS : NAME##Baseline ARGS; } \
  [[maybe_unused]] inline auto NAME##Chosen() {                                                        \
    return ::aerolin::core::CHOOSE() ? &NAME##Wide : &NAME##Baseline;                                  \
  }
#else
#define AEROLIN_TWO_ISAS(ATTRS, RET, NAME, TARGET, CHOOSE, PARAMS, ARGS) \
  ATTRS inline RET NAME##Body PARAMS;                                    \
  inline RET NAME PARAMS { return NAME##Body ARGS; }                     \
  [[maybe_unused]] inline auto NAME##Chosen() { return &NAME; }
#endif
