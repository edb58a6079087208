// util-env.js - pre-js for NetHack's build utilities running under Node:
// emscripten's C getenv() sees a virtual environment, so hand makedefs the
// one variable it needs for a reproducible date.h.
Module['preRun'] = Module['preRun'] || [];
Module['preRun'].push(function () {
  if (typeof ENV !== 'undefined' && process.env.SOURCE_DATE_EPOCH) ENV['SOURCE_DATE_EPOCH'] = process.env.SOURCE_DATE_EPOCH;
});
