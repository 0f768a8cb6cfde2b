# aerolin as an installable CMake package.
#
# Every library module `aerolin_<m>` (src/<m>/CMakeLists.txt) is exported as
# `aerolin::<m>`, usable in-tree through an ALIAS of the same name; the
# interface target `aerolin::aerolin` links all of them but aerolin::plot. `cmake --install`
# puts the static libraries, the public headers (include/aerolin/<module>/)
# and aerolinConfig.cmake + aerolinConfigVersion.cmake + aerolinTargets.cmake
# under the prefix, so a consumer writes
#   find_package(aerolin CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE aerolin::aerolin)
# (examples/consumer). The flight window's library (viz) is an application
# library and is not exported; the aerolin programs are installed too.
include(CMakePackageConfigHelpers)

set(AEROLIN_EXPORTED_MODULES core model data analysis sim pilot study export plot)
set(aerolin_exported_targets "")
foreach(module IN LISTS AEROLIN_EXPORTED_MODULES)
  if(NOT TARGET aerolin_${module})
    continue()
  endif()
  add_library(aerolin::${module} ALIAS aerolin_${module})
  set_target_properties(aerolin_${module} PROPERTIES EXPORT_NAME ${module})
  target_compile_features(aerolin_${module} PUBLIC cxx_std_20)
  list(APPEND aerolin_exported_targets aerolin_${module})
endforeach()

# The umbrella leaves out the figures (aerolin::plot): MathGL's shared
# library brings ~59 others, which a program that never draws should not load.
add_library(aerolin_aerolin INTERFACE)
set_target_properties(aerolin_aerolin PROPERTIES EXPORT_NAME aerolin)
set(aerolin_umbrella_targets ${aerolin_exported_targets})
list(REMOVE_ITEM aerolin_umbrella_targets aerolin_plot)
target_link_libraries(aerolin_aerolin INTERFACE ${aerolin_umbrella_targets})
add_library(aerolin::aerolin ALIAS aerolin_aerolin)

install(TARGETS ${aerolin_exported_targets} aerolin_aerolin
        EXPORT aerolinTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/aerolin
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        PATTERN viz EXCLUDE)
set(AEROLIN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/aerolin)
install(EXPORT aerolinTargets NAMESPACE aerolin:: DESTINATION ${AEROLIN_CMAKE_DIR})
configure_package_config_file(
  ${CMAKE_CURRENT_LIST_DIR}/aerolinConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/aerolinConfig.cmake
  INSTALL_DESTINATION ${AEROLIN_CMAKE_DIR})
write_basic_package_version_file(
  ${CMAKE_CURRENT_BINARY_DIR}/aerolinConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/aerolinConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/aerolinConfigVersion.cmake
        DESTINATION ${AEROLIN_CMAKE_DIR})
