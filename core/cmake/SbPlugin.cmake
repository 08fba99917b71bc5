# sb_add_plugin(<name> SOURCES <src>... [PKG_DEPS <pkg-config module>...]
#               [FIND_LIBS <library>...] [FIND_HEADERS <header>...]
#               [LIBS <lib>...] [SERVERS <server>...])
#
# Builds one storbench plugin as <name>.so from the calling folder, whose
# project(... VERSION x.y.z) is the plugin's own version (passed to the code as
# SB_PLUGIN_VERSION). Used in-tree and, installed with the SDK, by plugins
# built out of tree after find_package(storbench).
#
# A plugin whose dependencies are missing is skipped with a message, so a
# machine without, say, libiscsi still builds everything else. PKG_DEPS are
# pkg-config modules; FIND_LIBS and FIND_HEADERS are for libraries that ship
# no .pc file (libaio): each library is linked, each header must exist.
# Test scripts in the plugin's tests/ folder (*.sh) become ctest tests
# labelled with the plugin's name; valgrind*.sh ones only in builds without
# sanitizers. SERVERS names the tests/servers fixtures (nbd, nfs, ...) those
# tests need up, as sb_add_shell_test(SERVERS) takes them.
include_guard(GLOBAL)
find_package(PkgConfig QUIET)

if(NOT DEFINED SB_PLUGIN_INSTALL_DIR)
  include(GNUInstallDirs)
  set(SB_PLUGIN_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/storbench/plugins)
endif()

function(sb_add_plugin name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" ""
                        "SOURCES;PKG_DEPS;FIND_LIBS;FIND_HEADERS;LIBS;SERVERS")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "sb_add_plugin(${name}): SOURCES is required")
  endif()
  if(NOT PROJECT_VERSION)
    message(FATAL_ERROR "sb_add_plugin(${name}): give the folder a "
                        "project(... VERSION x.y.z)")
  endif()

  set(target sb_plugin_${name})
  set(pkg_targets)
  foreach(dep IN LISTS ARG_PKG_DEPS)
    string(MAKE_C_IDENTIFIER "sbdep_${dep}" var)
    if(PKG_CONFIG_FOUND)
      pkg_check_modules(${var} QUIET IMPORTED_TARGET ${dep})
    endif()
    if(NOT ${var}_FOUND)
      message(STATUS "storbench: skipping plugin '${name}': "
                     "${dep} not found (install its -dev package)")
      return()
    endif()
    list(APPEND pkg_targets PkgConfig::${var})
  endforeach()
  foreach(lib IN LISTS ARG_FIND_LIBS)
    string(MAKE_C_IDENTIFIER "sblib_${lib}" var)
    find_library(${var} ${lib})
    if(NOT ${var})
      message(STATUS "storbench: skipping plugin '${name}': "
                     "library ${lib} not found (install its -dev package)")
      return()
    endif()
    list(APPEND pkg_targets ${${var}})
  endforeach()
  foreach(hdr IN LISTS ARG_FIND_HEADERS)
    string(MAKE_C_IDENTIFIER "sbhdr_${hdr}" var)
    find_path(${var} ${hdr})
    if(NOT ${var})
      message(STATUS "storbench: skipping plugin '${name}': "
                     "header ${hdr} not found (install its -dev package)")
      return()
    endif()
  endforeach()

  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE storbench::sdk ${pkg_targets}
                                          ${ARG_LIBS})
  target_compile_definitions(${target}
                             PRIVATE SB_PLUGIN_VERSION="${PROJECT_VERSION}")
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    OUTPUT_NAME ${name}
    C_VISIBILITY_PRESET hidden
    C_STANDARD 17
    C_STANDARD_REQUIRED ON)
  if(DEFINED SB_PLUGIN_OUTPUT_DIR)
    set_target_properties(${target} PROPERTIES
      LIBRARY_OUTPUT_DIRECTORY ${SB_PLUGIN_OUTPUT_DIR})
  endif()
  # One install component per plugin, so each ships as its own package
  # (core/cmake/SbPackage.cmake) under its project's name and version.
  install(TARGETS ${target} LIBRARY DESTINATION ${SB_PLUGIN_INSTALL_DIR}
          COMPONENT plugin_${name})
  set_property(GLOBAL APPEND PROPERTY SB_PACKAGED_PLUGINS ${name})
  set_property(GLOBAL PROPERTY SB_PLUGIN_PACKAGE_${name} ${PROJECT_NAME})
  set_property(GLOBAL PROPERTY SB_PLUGIN_VERSION_${name} ${PROJECT_VERSION})

  if(COMMAND sb_add_shell_test)
    file(GLOB tests CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/tests/*.sh)
    foreach(t IN LISTS tests)
      get_filename_component(tname ${t} NAME)
      # valgrind cannot run beside the sanitizers: such a test exists only
      # in a build without them, so it never has to skip.
      if(tname MATCHES "^valgrind")
        if(NOT STORBENCH_SANITIZE)
          sb_add_shell_test(${t} LABELS plugin ${name} valgrind
                            SERVERS ${ARG_SERVERS})
        endif()
      else()
        sb_add_shell_test(${t} LABELS plugin ${name}
                          SERVERS ${ARG_SERVERS})
      endif()
    endforeach()
  endif()
endfunction()
