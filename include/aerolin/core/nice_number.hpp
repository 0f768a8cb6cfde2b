#pragma once
/// @file
/// "Nice" numbers for axis ticks and grid steps: 1, 2 or 5 times a power of
/// ten, rounded up, down or to the nearest.

namespace aerolin::core {

/// Returns the smallest nice number that is at least `x`.
/// @throws std::invalid_argument unless `x` is finite and > 0.
double NiceCeil(double x);

/// Returns the largest nice number that is at most `x`. A tick step of
/// NiceFloor(span / n) puts at least n ticks on an axis of length `span`.
/// @throws std::invalid_argument unless `x` is finite and > 0.
double NiceFloor(double x);

/// Returns the nice number nearest `x` on a log scale: mantissas below 1.5
/// round to 1, below 3.5 to 2, below 7.5 to 5, else to 10.
/// @throws std::invalid_argument unless `x` is finite and > 0.
double NiceNearest(double x);

}  // namespace aerolin::core
