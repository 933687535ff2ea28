# cmake --install <build> [--prefix P]: what a program that embeds gnomon needs, where C
# programmers look for it (GNUInstallDirs):
#   include/gnomon.h                       the one public header (no internal header is installed)
#   lib/libgnomon.so.X.Y.Z, .so.0, .so     the shared library (SONAME libgnomon.so.0)
#   lib/libgnomon.a                        the static archive (every object, decide and base too)
#   lib/pkgconfig/gnomon.pc                pkg-config --cflags --libs gnomon  (--static for the archive)
#   lib/cmake/gnomon/                      find_package(gnomon) -> gnomon::gnomon, the shared library
#   bin/gnomon                             the CLI
include(CMakePackageConfigHelpers)
set(GN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/gnomon)

install(FILES ${CMAKE_SOURCE_DIR}/include/gnomon.h DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS gnomon_shared EXPORT gnomonTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS gnomon ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS gnomon_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# The CMake package. The shared library's dependencies are private (resolved by its NEEDED
# entries at load time), so the config file has nothing to find.
install(EXPORT gnomonTargets NAMESPACE gnomon:: FILE gnomonTargets.cmake DESTINATION ${GN_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/gnomonConfig.cmake.in
                              ${CMAKE_BINARY_DIR}/gnomonConfig.cmake INSTALL_DESTINATION ${GN_CMAKE_DIR})
# 0.x: SOVERSION 0, so a 0.y asked for accepts any 0.z at least as new.
write_basic_package_version_file(${CMAKE_BINARY_DIR}/gnomonConfigVersion.cmake
                                 COMPATIBILITY SameMajorVersion)
install(FILES ${CMAKE_BINARY_DIR}/gnomonConfig.cmake ${CMAKE_BINARY_DIR}/gnomonConfigVersion.cmake
        DESTINATION ${GN_CMAKE_DIR})

# pkg-config: relative to the .pc file itself (${pcfiledir}), so the tree works under any
# --prefix given at install time; absolute when the install dirs were given absolute.
if(IS_ABSOLUTE ${CMAKE_INSTALL_LIBDIR} OR IS_ABSOLUTE ${CMAKE_INSTALL_INCLUDEDIR})
  set(GN_PC_PREFIX ${CMAKE_INSTALL_PREFIX})
  set(GN_PC_LIBDIR ${CMAKE_INSTALL_FULL_LIBDIR})
  set(GN_PC_INCLUDEDIR ${CMAKE_INSTALL_FULL_INCLUDEDIR})
else()
  file(RELATIVE_PATH GN_PC_UP /p/${CMAKE_INSTALL_LIBDIR}/pkgconfig /p)
  string(REGEX REPLACE "/$" "" GN_PC_UP ${GN_PC_UP})
  set(GN_PC_PREFIX "\${pcfiledir}/${GN_PC_UP}")
  set(GN_PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(GN_PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
configure_file(${CMAKE_CURRENT_LIST_DIR}/gnomon.pc.in ${CMAKE_BINARY_DIR}/gnomon.pc @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/gnomon.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
