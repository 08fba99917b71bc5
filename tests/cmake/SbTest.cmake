# Test registration. Every test speaks TAP, so `prove` runs the same
# programs and scripts ctest does.
include_guard(GLOBAL)

set(SB_TEST_BIN_DIR ${CMAKE_BINARY_DIR}/tests/bin)
set(SB_TEST_ENV
    SB_SOURCE_DIR=${CMAKE_SOURCE_DIR}
    SB_BUILD_DIR=${CMAKE_BINARY_DIR}
    SB_BIN=${CMAKE_BINARY_DIR}/bin/storbench
    SB_SANITIZE=${STORBENCH_SANITIZE}
    ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
    UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)

# A TAP program that skips shows as skipped, not passed: "1..0 # SKIP why"
# when none of it applies, and the closing note tap.sh and tap.c print when
# a passing program skipped some tests. Not the "ok N # skip" lines
# themselves: ctest marks a test whose output matches as skipped whatever
# its exit status, so a program with a skip and a failure would not fail.
# scripts/check.sh fails a CI run with any skipped test.
set(SB_TEST_SKIP_REGEX
    "(^|\n)1\\.\\.0 # [Ss][Kk][Ii][Pp]"
    "(^|\n)# Looks like you skipped [0-9]+ tests? of [0-9]+ run\\.")

# sb_test_needs_servers(<test> <servers>): the tests/servers fixtures the
# test needs up (nfs, smb, iscsi, nbd, influxdb), each one's lock taken
# too, so the tests of one server run one at a time.
function(sb_test_needs_servers name servers)
  if(servers)
    list(TRANSFORM servers PREPEND srv_)
    set_tests_properties(${name} PROPERTIES
      FIXTURES_REQUIRED "${servers}" RESOURCE_LOCK "${servers}")
  endif()
endfunction()

# sb_add_tap_test(<name> SOURCES <src>... [LIBS ...] [LABELS ...])
function(sb_add_tap_test name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LIBS;LABELS")
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE sb_tap ${ARG_LIBS})
  set_target_properties(${name} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${SB_TEST_BIN_DIR})
  add_test(NAME ${name} COMMAND ${name})
  set_tests_properties(${name} PROPERTIES
    LABELS "${ARG_LABELS}" ENVIRONMENT "${SB_TEST_ENV}"
    SKIP_REGULAR_EXPRESSION "${SB_TEST_SKIP_REGEX}")
  sb_test_needs_servers(${name} "${ARG_SERVERS}")
endfunction()

# sb_add_shell_test(<script> [LABELS ...] [SERVERS ...]): a bash script
# using tap.sh. SERVERS names tests/servers fixtures (nfs, smb, iscsi, nbd,
# influxdb) the script needs up; it takes each one's lock too, so the tests
# of one server run one at a time (tests/servers/CMakeLists.txt).
function(sb_add_shell_test script)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "LABELS;SERVERS")
  get_filename_component(base ${script} NAME_WE)
  file(RELATIVE_PATH rel ${CMAKE_SOURCE_DIR} ${script})
  string(REGEX REPLACE "[/.]" "_" name "${rel}")
  string(REGEX REPLACE "_sh$" "" name "${name}")
  add_test(NAME ${name} COMMAND bash ${script})
  set_tests_properties(${name} PROPERTIES
    LABELS "${ARG_LABELS}" ENVIRONMENT "${SB_TEST_ENV}" TIMEOUT 300
    SKIP_REGULAR_EXPRESSION "${SB_TEST_SKIP_REGEX}")
  sb_test_needs_servers(${name} "${ARG_SERVERS}")
endfunction()
