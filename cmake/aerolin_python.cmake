# Finds what the Python module (python/) needs: a Python 3 interpreter with
# its development headers, and pybind11. Sets AEROLIN_PYTHON_ENABLED; when
# something is missing the module is left out with one configure message
# saying what to install, and the rest of aerolin builds as before.
#
# Which interpreter: Debian's python3-numpy, python3-pytest, python3-pybind11
# and python3-matplotlib are installed for the system interpreter
# /usr/bin/python3 only, while a pyenv/conda shim earlier on PATH (this
# machine has pyenv's 3.11.7 first) would be FindPython's first pick and has
# none of them. So the system interpreter is preferred when it exists; pass
# -DPython3_EXECUTABLE=/path/to/python3 to build for another one (the tests
# then run with that one too).
set(AEROLIN_PYTHON_ENABLED OFF)
if(NOT DEFINED Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 3.8 COMPONENTS Interpreter Development.Module)
if(Python3_FOUND)
  find_package(pybind11 2.6 CONFIG)
endif()
if(NOT Python3_FOUND OR NOT pybind11_FOUND)
  if(NOT Python3_FOUND)
    set(_aerolin_python_missing "Python 3 with its headers (python3-dev)")
  else()
    set(_aerolin_python_missing "pybind11 (pybind11-dev)")
  endif()
  message(WARNING
    "aerolin: the Python module is NOT built: ${_aerolin_python_missing} not found. "
    "Install with scripts/install-deps.sh (apt-get install python3-dev pybind11-dev "
    "python3-numpy python3-pytest), or configure with -DAEROLIN_BUILD_PYTHON=OFF.")
  return()
endif()
set(AEROLIN_PYTHON_ENABLED ON)
# The static libraries are linked into the extension, a shared object.
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
# Where `cmake --install` puts the package, relative to the install prefix:
# the interpreter's site-packages layout, so `--prefix ~/.local` lands in the
# user site directory the interpreter already searches, and any other prefix
# works with PYTHONPATH=<prefix>/<this>. An absolute path (for instance
# ${Python3_SITEARCH}, the interpreter's own directory) installs there
# whatever the prefix.
set(AEROLIN_PYTHON_INSTALL_DIR
    "lib/python${Python3_VERSION_MAJOR}.${Python3_VERSION_MINOR}/site-packages"
    CACHE STRING "Install directory of the aerolin Python package (relative: under the prefix)")
message(STATUS "aerolin: Python module for ${Python3_EXECUTABLE} (${Python3_VERSION}), "
               "pybind11 ${pybind11_VERSION}; installs into <prefix>/${AEROLIN_PYTHON_INSTALL_DIR}")
