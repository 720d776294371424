# Copies the static site into ${SITE}: web/ as is, bundled npm libraries into vendor/, and the
# sample files from fixtures/ into samples/ with an index the page lists. Run by the wasm build.
file(MAKE_DIRECTORY "${SITE}")
file(COPY "${SRC}/web/" DESTINATION "${SITE}")
file(MAKE_DIRECTORY "${SITE}/vendor")
foreach(f uPlot.iife.min.js uPlot.min.css)
  if(EXISTS "${SRC}/node_modules/uplot/dist/${f}")
    file(COPY "${SRC}/node_modules/uplot/dist/${f}" DESTINATION "${SITE}/vendor")
  else()
    message(FATAL_ERROR "node_modules/uplot/dist/${f} missing: run scripts/setup.sh (npm ci)")
  endif()
endforeach()
if(EXISTS "${SRC}/node_modules/uplot/LICENSE")
  file(COPY "${SRC}/node_modules/uplot/LICENSE" DESTINATION "${SITE}/vendor/uplot-LICENSE")
endif()
# The SQL panel's engine (web/sql/ loads it when the panel is first opened): DuckDB-wasm (its
# exception-handling build: the site's own module needs wasm exceptions too) and apache-arrow's UMD
# build, self-hosted under sql/vendor/. duckdb-browser.mjs imports 'apache-arrow' by package name,
# which a page without a bundler cannot resolve: those imports become the UMD build's global.
set(duckdb_dist "${SRC}/node_modules/@duckdb/duckdb-wasm/dist")
set(arrow_umd "${SRC}/node_modules/apache-arrow/Arrow.es2015.min.js")
if(NOT EXISTS "${duckdb_dist}/duckdb-eh.wasm" OR NOT EXISTS "${arrow_umd}")
  message(FATAL_ERROR "node_modules/@duckdb/duckdb-wasm or apache-arrow missing: run scripts/setup.sh (npm ci)")
endif()
file(MAKE_DIRECTORY "${SITE}/sql/vendor")
file(COPY "${duckdb_dist}/duckdb-eh.wasm" "${duckdb_dist}/duckdb-browser-eh.worker.js" "${arrow_umd}"
  "${SRC}/node_modules/apache-arrow/LICENSE.txt" DESTINATION "${SITE}/sql/vendor")
file(READ "${duckdb_dist}/duckdb-browser.mjs" duckdb_mjs)
string(REGEX MATCHALL "import\\*as [A-Za-z_$][A-Za-z0-9_$]* from\"apache-arrow\";" arrow_imports "${duckdb_mjs}")
set(arrow_vars "")
foreach(imp ${arrow_imports})
  string(REGEX REPLACE "import\\*as ([A-Za-z0-9_$]+) from.*" "\\1" name "${imp}")
  string(APPEND arrow_vars "var ${name}=globalThis.Arrow;")
  string(REPLACE "${imp}" "" duckdb_mjs "${duckdb_mjs}")
endforeach()
if(arrow_vars STREQUAL "" OR duckdb_mjs MATCHES "from\"apache-arrow\"")
  message(FATAL_ERROR "duckdb-browser.mjs: its apache-arrow imports are not of the expected form")
endif()
file(WRITE "${SITE}/sql/vendor/duckdb-browser.mjs" "${arrow_vars}\n${duckdb_mjs}")
# The Parquet export of a query's answer: DuckDB-wasm's npm build has no parquet extension built in
# (and the page fetches none), so hyparquet-writer writes the file. Its ES modules and those of
# hyparquet it imports go under sql/vendor/<package>/; imports of 'hyparquet' by package name become
# relative paths. node.js (each package's file-system entry point) is left out.
foreach(pkg hyparquet hyparquet-writer)
  file(GLOB pkg_js "${SRC}/node_modules/${pkg}/src/*.js")
  if(NOT pkg_js)
    message(FATAL_ERROR "node_modules/${pkg} missing: run scripts/setup.sh (npm ci)")
  endif()
  file(MAKE_DIRECTORY "${SITE}/sql/vendor/${pkg}")
  foreach(f ${pkg_js})
    get_filename_component(name "${f}" NAME)
    if(name STREQUAL "node.js")
      continue()
    endif()
    file(READ "${f}" js)
    string(REPLACE "from 'hyparquet/src/" "from '../hyparquet/" js "${js}")
    string(REPLACE "from 'hyparquet'" "from '../hyparquet/index.js'" js "${js}")
    file(WRITE "${SITE}/sql/vendor/${pkg}/${name}" "${js}")
  endforeach()
  file(COPY_FILE "${SRC}/node_modules/${pkg}/LICENSE" "${SITE}/sql/vendor/${pkg}/LICENSE")
endforeach()

# Samples: the list in fixtures/samples.json (path, title), copied flat into samples/.
file(READ "${SRC}/fixtures/samples.json" samples_json)
string(JSON n LENGTH "${samples_json}" samples)
math(EXPR last "${n} - 1")
file(MAKE_DIRECTORY "${SITE}/samples")
foreach(i RANGE ${last})
  string(JSON p GET "${samples_json}" samples ${i} path)
  file(COPY "${SRC}/fixtures/${p}" DESTINATION "${SITE}/samples")
endforeach()
file(COPY "${SRC}/fixtures/samples.json" DESTINATION "${SITE}/samples")

# The service worker names its cache after this build, so a new deployment replaces the old files:
# the id covers every file the site's code is made of (web/, the bundled uPlot, the scripts that
# assemble and bundle them, the wasm module and its glue). The sample files are data, not code.
file(GLOB_RECURSE web_all "${SRC}/web/*")
set(build_key "${VERSION}")
foreach(f ${web_all} "${SRC}/scripts/assemble_site.cmake" "${SRC}/scripts/bundle_js.cmake" "${SRC}/package-lock.json"
    "${SITE}/vendor/uPlot.iife.min.js" "${SITE}/vendor/uPlot.min.css" "${SITE}/gcscope.wasm" "${SITE}/gcscope.js")
  if(EXISTS "${f}")
    file(SHA1 "${f}" h)
    string(APPEND build_key "${h}")
  endif()
endforeach()
string(SHA1 build_id "${build_key}")
# The analysis worker knows its build, so that a page of another build is told to reload instead of
# running a worker that may not speak its protocol (see the build check in web/worker.js).
file(READ "${SRC}/web/worker.js" worker)
string(REPLACE "__BUILD_ID__" "${build_id}" worker "${worker}")
file(WRITE "${SITE}/worker.js" "${worker}")
# One script for the page (shared with the CLI's --html report, which has no build id: it loads no
# wasm).
include("${SRC}/scripts/bundle_js.cmake")
set(BUILD_ID "${build_id}")
gcscope_bundle_js("${SITE}/app.bundle.js")

# The files a page asks for under its build's name (file?v=BUILD_ID: the module, its glue and the
# workers, and what a saved HTML report inlines) and the page itself, each with its SHA-1: the service
# worker installs a build only if these are its bytes (see precache in web/sw.js).
set(versioned "")
foreach(f gcscope.wasm gcscope.js worker.js reader.js index.html app.bundle.js style.css report-template.html
    vendor/uPlot.iife.min.js vendor/uPlot.min.css)
  if(EXISTS "${SITE}/${f}")
    file(SHA1 "${SITE}/${f}" h)
    string(APPEND versioned "\n  '${f}': '${h}',")
  endif()
endforeach()
file(READ "${SRC}/web/sw.js" sw)
string(REPLACE "__BUILD_ID__" "${build_id}" sw "${sw}")
string(REPLACE "/*__VERSIONED_SHA1__*/" "${versioned}\n" sw "${sw}")
file(WRITE "${SITE}/sw.js" "${sw}")
