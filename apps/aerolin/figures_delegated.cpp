// `aerolin`'s figure writers: none, so that it links no MathGL; a command
// asked for a figure runs `aerolin-plot` instead (figures.hpp).

#include "figures.hpp"

namespace aerolin::cli::figures {

bool InProcess() { return false; }

#define AEROLIN_CLI_DEFINE_FIGURE_WRITER(name) \
  const decltype(&exporting::name) name = nullptr;
AEROLIN_CLI_FIGURE_WRITERS(AEROLIN_CLI_DEFINE_FIGURE_WRITER)

}  // namespace aerolin::cli::figures
