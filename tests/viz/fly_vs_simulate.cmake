# Flies a scripted pilot in aerolin-fly (under Xvfb), then replays the
# recorded script with `aerolin simulate`; the two CSVs must be identical.
# -D FLY=... AEROLIN=... AIRCRAFT=... SCRIPT=... WORK=... [EXCITE=mode]
# [TURBULENCE=intensity: then the replay command the window printed is run]
# [BARE=1: the aircraft with an LQR yaw damper written by `aerolin augment`,
#  flown with --bare; the printed replay command (with --bare) is run]
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
if(BARE)
  execute_process(COMMAND ${AEROLIN} augment ${AIRCRAFT} --axis lateral --lqr --inputs rudder
                          --write ${WORK}/damped.toml
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "aerolin augment failed (${rc}): ${out} ${err}")
  endif()
  set(AIRCRAFT ${WORK}/damped.toml)
endif()
set(fly_args ${AIRCRAFT} --script ${SCRIPT} --duration 30 --log-dir ${WORK} --log-name live
    --width 400 --height 300)
set(sim_excite)
if(EXCITE)
  list(APPEND fly_args --excite ${EXCITE})
  set(sim_excite --excite ${EXCITE})
endif()
if(TURBULENCE)
  list(APPEND fly_args --turbulence ${TURBULENCE} --altitude 1500 --seed 11)
endif()
if(BARE)
  list(APPEND fly_args --bare)
endif()
execute_process(COMMAND ${FLY} ${fly_args} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aerolin-fly failed (${rc}): ${out} ${err}")
endif()
if(TURBULENCE OR BARE)
  # Run the replay command the window printed (intensity, altitude and seed,
  # or --bare, must all be in it), writing its CSV into WORK.
  if(NOT out MATCHES "replay: aerolin simulate ([^\n]*) --csv replay.csv")
    message(FATAL_ERROR "no replay command in: ${out}")
  endif()
  separate_arguments(replay_args UNIX_COMMAND "${CMAKE_MATCH_1}")
  if(BARE AND NOT CMAKE_MATCH_1 MATCHES " --bare")
    message(FATAL_ERROR "the replay command of a bare flight lacks --bare: ${CMAKE_MATCH_1}")
  endif()
  message(STATUS "replay: aerolin simulate ${CMAKE_MATCH_1}")
  execute_process(COMMAND ${AEROLIN} simulate ${replay_args} --csv ${WORK}/replay.csv
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
else()
# Replay the script the window recorded, not the input script.
execute_process(COMMAND ${AEROLIN} simulate ${AIRCRAFT} --script ${WORK}/live-1.script.txt
                        --duration 30 ${sim_excite} --csv ${WORK}/replay.csv
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
endif()
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "aerolin simulate failed (${rc}): ${out} ${err}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E compare_files ${WORK}/live-1.csv ${WORK}/replay.csv
                RESULT_VARIABLE same)
if(NOT same EQUAL 0)
  message(FATAL_ERROR "flight log ${WORK}/live-1.csv differs from aerolin simulate's ${WORK}/replay.csv")
endif()
message(STATUS "identical: ${WORK}/live-1.csv and ${WORK}/replay.csv")
