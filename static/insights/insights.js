// The insights charts: Chart.js (static/vendor/chartjs) draws what the page's JSON data block
// holds; each chart's table below it carries the same numbers for anyone who reads rather
// than looks. No inline script or style: the page's CSP allows neither.
(function () {
  "use strict";

  var PALETTE = ["#2f6f6a", "#e0a340", "#4f7fbf", "#b3362b", "#7a5ea8", "#686d77"];
  var MOOD = { declining: "#4f7fbf", stable: "#9aa0a8", improving: "#e0a340" };

  function color(series, index) {
    return (series.mood && MOOD[series.mood]) || PALETTE[index % PALETTE.length];
  }

  function datasets(chart) {
    return chart.series.map(function (series, index) {
      var line = chart.kind === "line" || (chart.kind === "combo" && series.axis === "right");
      return {
        type: line ? "line" : "bar",
        label: series.label,
        data: series.data,
        backgroundColor: color(series, index),
        borderColor: color(series, index),
        borderWidth: line ? 2 : 0,
        spanGaps: true,
        yAxisID: series.axis === "right" ? "y1" : "y",
        order: line ? 0 : 1
      };
    });
  }

  function scales(chart) {
    var y = {
      beginAtZero: true,
      stacked: chart.stacked,
      ticks: { precision: chart.unit === "$" ? undefined : 0 },
      title: { display: Boolean(chart.unit), text: chart.unit }
    };
    if (chart.unit === "%") {
      y.suggestedMax = 100;
    }
    var result = { x: { stacked: chart.stacked, ticks: { autoSkip: true, maxRotation: 0 } }, y: y };
    if (chart.kind === "combo") {
      result.y1 = { position: "right", min: 0, max: 5, grid: { drawOnChartArea: false } };
    }
    return result;
  }

  function draw(chart) {
    var canvas = document.getElementById("canvas-" + chart.id);
    if (!canvas || !window.Chart) {
      return;
    }
    var drawn = new window.Chart(canvas, {
      type: chart.kind === "line" ? "line" : "bar",
      data: { labels: chart.labels, datasets: datasets(chart) },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        plugins: { legend: { display: chart.series.length > 1, position: "bottom" } },
        scales: scales(chart)
      }
    });
    canvas.dataset.drawn = String(drawn.data.datasets.length);
  }

  document.addEventListener("DOMContentLoaded", function () {
    var data = document.getElementById("insights-charts");
    if (!data) {
      return;
    }
    JSON.parse(data.textContent).forEach(draw);
  });
})();
