// `aerolin-plot`'s figure writers: MathGL's, from the aerolin_plot library
// (figures.hpp).

#include "figures.hpp"

namespace aerolin::cli::figures {

bool InProcess() { return true; }

#define AEROLIN_CLI_DEFINE_FIGURE_WRITER(name) \
  const decltype(&exporting::name) name = &exporting::name;
AEROLIN_CLI_FIGURE_WRITERS(AEROLIN_CLI_DEFINE_FIGURE_WRITER)

}  // namespace aerolin::cli::figures
