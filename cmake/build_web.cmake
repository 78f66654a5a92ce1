# Builds the web UI (web/dist) for the executable to embed: `npm ci` when its
# packages are missing or older than package-lock.json, then `npm run build`
# (TypeScript check and Vite). Run by src/app/CMakeLists.txt whenever a file of the
# UI changed. Arguments: -DWEB=<web folder> -DNPM=<npm>.
# SPDX-License-Identifier: GPL-3.0-or-later
if(NOT EXISTS "${WEB}/node_modules/.package-lock.json" OR "${WEB}/package-lock.json" IS_NEWER_THAN "${WEB}/node_modules/.package-lock.json")
  execute_process(COMMAND "${NPM}" ci --no-audit --no-fund WORKING_DIRECTORY "${WEB}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "web UI: npm ci failed (${status})")
  endif()
endif()
execute_process(COMMAND "${NPM}" run build WORKING_DIRECTORY "${WEB}" RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "web UI: npm run build failed (${status})")
endif()
