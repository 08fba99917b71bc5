# Debian packages, one per component: `cpack -G DEB` in the build folder
# (or `cmake --build build --target package`) writes
#   storbench_<release>_<arch>.deb       the program
#   storbench-dev_<release>_<arch>.deb   the SDK (headers, storbench.pc, CMake)
#   <plugin project>_<plugin version>_<arch>.deb   one per plugin
# A plugin package depends on the ABI major it was built for through the
# virtual package storbench-abi-<major>, which storbench provides with its
# ABI version, and on its libraries through dpkg-shlibdeps; never on one
# storbench release, so upgrading one plugin leaves the others alone.
include_guard(GLOBAL)

string(REGEX MATCH "^[0-9]+" _sb_abi_major "${SB_ABI}")
set(SB_ABI_PACKAGE storbench-abi-${_sb_abi_major})

set(CPACK_PACKAGE_NAME storbench)
set(CPACK_PACKAGE_VENDOR storbench)
set(CPACK_PACKAGE_CONTACT "storbench maintainers <storbench@localhost>")
set(CPACK_PACKAGE_VERSION ${SB_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)

set(CPACK_DEBIAN_STORBENCH_PACKAGE_NAME storbench)
set(CPACK_DEBIAN_STORBENCH_PACKAGE_PROVIDES "${SB_ABI_PACKAGE} (= ${SB_ABI})")
set(CPACK_DEBIAN_STORBENCH_DESCRIPTION
    "storage benchmark with fio-compatible job files (host program)")
set(CPACK_DEBIAN_SDK_PACKAGE_NAME storbench-dev)
set(CPACK_DEBIAN_SDK_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_SDK_DESCRIPTION
    "storbench plugin SDK: headers, storbench.pc and the CMake package")
set(_sb_components storbench sdk)

# CPack 3.25 has one version for all the packages of a run; each
# component's own is set as the DEB generator starts on it
# (SbPackageVersion.cmake).
get_property(_sb_plugins GLOBAL PROPERTY SB_PACKAGED_PLUGINS)
foreach(_p IN LISTS _sb_plugins)
  get_property(_pkg GLOBAL PROPERTY SB_PLUGIN_PACKAGE_${_p})
  get_property(_ver GLOBAL PROPERTY SB_PLUGIN_VERSION_${_p})
  string(TOUPPER "plugin_${_p}" _c)
  string(TOLOWER "${_pkg}" _pkg)
  set(CPACK_DEBIAN_${_c}_PACKAGE_NAME ${_pkg})
  set(CPACK_DEBIAN_${_c}_PACKAGE_DEPENDS "${SB_ABI_PACKAGE} (>= ${SB_ABI})")
  set(CPACK_DEBIAN_${_c}_DESCRIPTION "storbench plugin '${_p}'")
  set(CPACK_SB_VERSION_${_c} ${_ver})
  list(APPEND _sb_components plugin_${_p})
endforeach()
# A run with no --output-format prints through the normal reporter: the
# program needs that one plugin package to do anything.
get_property(_sb_normal GLOBAL PROPERTY SB_PLUGIN_PACKAGE_normal)
if(_sb_normal)
  string(TOLOWER "${_sb_normal}" _sb_normal)
  set(CPACK_DEBIAN_STORBENCH_PACKAGE_DEPENDS ${_sb_normal})
endif()
set(CPACK_COMPONENTS_ALL ${_sb_components})
set(CPACK_PROJECT_CONFIG_FILE
    ${CMAKE_CURRENT_LIST_DIR}/SbPackageVersion.cmake)
include(CPack)
