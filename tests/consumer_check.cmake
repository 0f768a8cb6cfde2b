# Installs aerolin from the build tree BUILD into a fresh prefix, configures
# and builds examples/consumer against that prefix alone, runs it on the
# P2V-7 and checks its short period against the value `aerolin modes` prints
# (λ = −1.038 ± 1.851i, ωn = 2.122 rad/s, ζ = 0.489; printed here to six
# significant digits: −1.03768 ± 1.85146i, 2.12242, 0.488911).
#   cmake -D BUILD=... -D SOURCE=... -D WORK=... -P consumer_check.cmake
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
set(prefix ${WORK}/prefix)
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()
run(${CMAKE_COMMAND} --install ${BUILD} --prefix ${prefix})
foreach(f lib/cmake/aerolin/aerolinConfig.cmake lib/cmake/aerolin/aerolinConfigVersion.cmake
          include/aerolin/analysis/modes.hpp)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install did not produce ${prefix}/${f}")
  endif()
endforeach()
# CMAKE_FIND_USE_PACKAGE_REGISTRY off and only this prefix: the consumer can
# find aerolin nowhere else (the build tree is not exported to the registry).
# A sanitizer build installs instrumented static libraries: the consumer
# links the sanitizer runtimes too.
set(sanitize_flags)
if(SANITIZE)
  set(sanitize_flags -DCMAKE_CXX_FLAGS=-fsanitize=address,undefined
                     -DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined)
endif()
run(${CMAKE_COMMAND} -S ${SOURCE}/examples/consumer -B ${WORK}/build
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
    -DCMAKE_BUILD_TYPE=Release ${sanitize_flags})
run(${CMAKE_COMMAND} --build ${WORK}/build)
run(${WORK}/build/print_modes ${SOURCE}/data/derivatives/p2v7.toml)
message(STATUS "${out}")
if(NOT out MATCHES "short period +lambda = -1\\.037[0-9]* \\+1\\.851[0-9]*i 1/s  wn = 2\\.122[0-9]* rad/s  zeta = 0\\.488[0-9]*")
  message(FATAL_ERROR "consumer did not print the P2V-7 short period:\n${out}")
endif()
