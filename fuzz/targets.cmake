# Makes the fuzz targets from the registry: fuzz_any and one fuzz_<id> per format `gcscope formats`
# lists, each a link to the one harness (which reads its format from its own name), and writes
# fuzz_targets.txt, "target domain" a line ("-" when the target has no domain), for fuzz/run.sh.
#   cmake -DGCSCOPE=cli -DHARNESS=fuzz_input_set -DOUT=build/fuzz -P fuzz/targets.cmake
execute_process(COMMAND "${GCSCOPE}" formats OUTPUT_VARIABLE formats RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${GCSCOPE} formats failed (${rc})")
endif()
get_filename_component(harness "${HARNESS}" NAME)
set(list "fuzz_any -\nfuzz_byte_sources -\n")
set(names fuzz_any)
string(JSON n LENGTH "${formats}")
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON id GET "${formats}" ${i} id)
  string(JSON domain GET "${formats}" ${i} domain)
  list(APPEND names "fuzz_${id}")
  string(APPEND list "fuzz_${id} ${domain}\n")
endforeach()
foreach(name ${names})
  file(REMOVE "${OUT}/${name}")
  file(CREATE_LINK "${harness}" "${OUT}/${name}" SYMBOLIC)
endforeach()
file(WRITE "${OUT}/fuzz_targets.txt" "${list}")
