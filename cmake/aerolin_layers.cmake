# The one-way rule at configure time. Reads cmake/aerolin_layers.txt (the rule,
# written once; scripts/check-layering.sh reads it too) and, once every target
# is defined, fails the configuration on a link edge of a table target against
# it: a module target linking a module of its own layer or above, or a
# third-party library of the table linked by a target the table does not name.
# The sources' side (includes, stale and missing edges) is check-layering.sh's.

set(AEROLIN_LAYER_TARGETS "")
set(AEROLIN_LAYER_LIBRARIES "")
file(STRINGS ${CMAKE_CURRENT_LIST_DIR}/aerolin_layers.txt aerolin_layer_lines REGEX "^(module|library) ")
foreach(line IN LISTS aerolin_layer_lines)
  if(line MATCHES "^module +([0-9]+) +([a-z_]+) +(.*)$")
    set(layer ${CMAKE_MATCH_1})
    set(module ${CMAKE_MATCH_2})
    string(REGEX REPLACE " +" ";" targets "${CMAKE_MATCH_3}")
    foreach(target IN LISTS targets)
      set(AEROLIN_LAYER_OF_${target} ${layer})
      set(AEROLIN_MODULE_OF_${target} ${module})
      list(APPEND AEROLIN_LAYER_TARGETS ${target})
    endforeach()
  elseif(line MATCHES "^library +([^ ]+) +[^ ]+ +([^ ]+) +[^ ]+ +(.*)$")
    list(APPEND AEROLIN_LAYER_LIBRARIES ${CMAKE_MATCH_1})
    set(AEROLIN_LIBRARY_LINK_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    string(REGEX REPLACE " +" ";" AEROLIN_LIBRARY_TARGETS_${CMAKE_MATCH_1} "${CMAKE_MATCH_3}")
  endif()
endforeach()

function(aerolin_check_link_edges)
  set(errors "")
  foreach(target IN LISTS AEROLIN_LAYER_TARGETS)
    if(NOT TARGET ${target})
      continue()
    endif()
    get_target_property(linked ${target} LINK_LIBRARIES)
    get_target_property(interface ${target} INTERFACE_LINK_LIBRARIES)
    # PUBLIC items are in both lists; PRIVATE ones of a static library in the
    # interface as $<LINK_ONLY:item>.
    list(TRANSFORM interface REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1")
    set(items ${linked} ${interface})
    list(FILTER items EXCLUDE REGEX "NOTFOUND$")
    list(REMOVE_DUPLICATES items)
    foreach(item IN LISTS items)
      if(TARGET ${item})
        get_target_property(aliased ${item} ALIASED_TARGET)
        if(aliased)
          set(item ${aliased})
        endif()
      endif()
      if(DEFINED AEROLIN_LAYER_OF_${item})
        if(NOT AEROLIN_MODULE_OF_${item} STREQUAL AEROLIN_MODULE_OF_${target} AND
           NOT AEROLIN_LAYER_OF_${item} LESS AEROLIN_LAYER_OF_${target})
          string(APPEND errors "\n  ${target} (${AEROLIN_MODULE_OF_${target}}/) links ${item} "
                 "(${AEROLIN_MODULE_OF_${item}}/, not a lower layer)")
        endif()
        continue()
      endif()
      foreach(library IN LISTS AEROLIN_LAYER_LIBRARIES)
        set(pattern "${AEROLIN_LIBRARY_LINK_${library}}")
        if(NOT pattern STREQUAL "-" AND item MATCHES "${pattern}" AND
           NOT target IN_LIST AEROLIN_LIBRARY_TARGETS_${library})
          string(APPEND errors "\n  ${target} links ${item} (${library}: only "
                 "${AEROLIN_LIBRARY_TARGETS_${library}})")
        endif()
      endforeach()
    endforeach()
  endforeach()
  if(errors)
    message(FATAL_ERROR "link edges against cmake/aerolin_layers.txt:${errors}")
  endif()
endfunction()
cmake_language(DEFER CALL aerolin_check_link_edges)
