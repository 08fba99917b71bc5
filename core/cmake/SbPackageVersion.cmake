# Read by cpack (CPACK_PROJECT_CONFIG_FILE). The DEB generator names the
# component it is about to package in CPACK_DEB_PACKAGE_COMPONENT; a watch
# on that variable gives the package its own version before the generator
# reads CPACK_DEBIAN_PACKAGE_VERSION, so a plugin ships as its
# project(VERSION) and not as storbench's release.
macro(sb_package_version var access value)
  if("${access}" STREQUAL "MODIFIED_ACCESS")
    string(TOUPPER "${value}" _sb_c)
    if(DEFINED CPACK_SB_VERSION_${_sb_c})
      set(CPACK_DEBIAN_PACKAGE_VERSION ${CPACK_SB_VERSION_${_sb_c}})
    else()
      set(CPACK_DEBIAN_PACKAGE_VERSION ${CPACK_PACKAGE_VERSION})
    endif()
  endif()
endmacro()
variable_watch(CPACK_DEB_PACKAGE_COMPONENT sb_package_version)
