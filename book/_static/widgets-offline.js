/* mltutor: let the Jupyter widgets manager run from the book's own copy, with MathJax 3.
 *
 * Loaded (through nb_ipywidgets_js) after require.js and before
 * vendor/html-manager/embed-amd.js, on pages that hold widget state only.
 *
 * 1. embed-amd.js finds its fonts relative to the require.js URL of its module id
 *    "@jupyter-widgets/html-manager/dist/...", which by default resolves next to the page.
 *    Map that id onto our vendored copy so the fonts load from _static/vendor/html-manager/.
 * 2. The widgets typeset their labels with the MathJax 2 call MathJax.Hub.Queue; the book
 *    runs MathJax 3, which has no Hub. Provide a tiny Hub that forwards to MathJax 3.
 */
(function () {
  "use strict";
  var script = document.currentScript;
  var base = script ? script.src.slice(0, script.src.lastIndexOf("/") + 1) : "";
  if (window.require && window.require.config && base) {
    window.require.config({
      paths: { "@jupyter-widgets/html-manager/dist": base + "vendor/html-manager" }
    });
  }

  function typeset(element) {
    var mj = window.MathJax;
    if (!mj || typeof mj.typesetPromise !== "function") return;
    var ready = mj.startup && mj.startup.promise ? mj.startup.promise : Promise.resolve();
    ready.then(function () {
      return mj.typesetPromise(element ? [element] : undefined);
    }).catch(function (err) {
      console.warn("MathJax could not typeset a widget label", err);
    });
  }
  var hub = {
    Queue: function () {
      for (var i = 0; i < arguments.length; i++) {
        var cmd = arguments[i];
        if (Array.isArray(cmd) && cmd[0] === "Typeset") typeset(cmd[2]);
      }
    }
  };
  // MathJax 3 may replace or extend window.MathJax when it starts; keep a Hub on it either way.
  function install() {
    if (window.MathJax && !window.MathJax.Hub) window.MathJax.Hub = hub;
  }
  install();
  document.addEventListener("DOMContentLoaded", install);
  if (window.MathJax && window.MathJax.startup && window.MathJax.startup.promise) {
    window.MathJax.startup.promise.then(install);
  }
})();
