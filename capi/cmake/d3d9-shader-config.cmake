# The CMake package of the d3d9-shader C API, installed as
# PREFIX/lib/cmake/d3d9-shader/d3d9-shader-config.cmake beside PREFIX/lib/pkgconfig/d3d9_shader.pc
# (the install layout of capi/README.md). PREFIX is found from this file's place, so the
# installed tree may move.
#
#   find_package(d3d9-shader 0.1 CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE d3d9_shader::d3d9_shader)          # the shared library
#   target_link_libraries(app PRIVATE d3d9_shader::d3d9_shader_static)   # or the static one
#
# Both targets carry the include directory; the static one also the system libraries Rust's
# standard library needs (the pkg-config file's Libs.private).

get_filename_component(_d3d9s_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
set(_d3d9s_header "${_d3d9s_prefix}/include/d3d9_shader.h")
set(_d3d9s_shared "${_d3d9s_prefix}/lib/libd3d9_shader_capi.so.0")
set(_d3d9s_static "${_d3d9s_prefix}/lib/libd3d9_shader_capi.a")

foreach(_d3d9s_file IN ITEMS "${_d3d9s_header}" "${_d3d9s_shared}" "${_d3d9s_static}")
  if(NOT EXISTS "${_d3d9s_file}")
    set(d3d9-shader_FOUND FALSE)
    set(d3d9-shader_NOT_FOUND_MESSAGE "${_d3d9s_file} is missing (see capi/README.md, Install layout)")
    return()
  endif()
endforeach()

if(NOT TARGET d3d9_shader::d3d9_shader)
  add_library(d3d9_shader::d3d9_shader SHARED IMPORTED)
  set_target_properties(d3d9_shader::d3d9_shader PROPERTIES
    IMPORTED_LOCATION "${_d3d9s_shared}"
    IMPORTED_SONAME "libd3d9_shader_capi.so.0"
    INTERFACE_INCLUDE_DIRECTORIES "${_d3d9s_prefix}/include")
endif()

if(NOT TARGET d3d9_shader::d3d9_shader_static)
  add_library(d3d9_shader::d3d9_shader_static STATIC IMPORTED)
  set_target_properties(d3d9_shader::d3d9_shader_static PROPERTIES
    IMPORTED_LOCATION "${_d3d9s_static}"
    IMPORTED_LINK_INTERFACE_LANGUAGES "C"
    INTERFACE_INCLUDE_DIRECTORIES "${_d3d9s_prefix}/include"
    INTERFACE_LINK_LIBRARIES "pthread;dl;m;rt;gcc_s;util")
endif()

set(d3d9-shader_INCLUDE_DIRS "${_d3d9s_prefix}/include")
set(d3d9-shader_LIBRARIES d3d9_shader::d3d9_shader)
unset(_d3d9s_file)
unset(_d3d9s_header)
unset(_d3d9s_shared)
unset(_d3d9s_static)
unset(_d3d9s_prefix)
