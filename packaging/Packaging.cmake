# Desktop integration and the Debian package (cpack -G DEB).
include(GNUInstallDirs)
if(TRACELANE_BUILD_GUI)
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/io.github.tracelane.Tracelane.desktop
            DESTINATION ${CMAKE_INSTALL_DATADIR}/applications)
    install(FILES ${CMAKE_CURRENT_LIST_DIR}/io.github.tracelane.Tracelane.metainfo.xml
            DESTINATION ${CMAKE_INSTALL_DATADIR}/metainfo)
    install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/tracelane.svg
            DESTINATION ${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps
            RENAME io.github.tracelane.Tracelane.svg)
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/resources/examples/
        DESTINATION ${CMAKE_INSTALL_DATADIR}/tracelane/examples)

set(CPACK_PACKAGE_NAME "tracelane")
set(CPACK_PACKAGE_VENDOR "Tracelane")
set(CPACK_PACKAGE_CONTACT "Tracelane developers <dev@tracelane.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_GENERATOR "DEB")
include(CPack)
