// A running experiment's page follows its progress from the server's
// status stream, and reloads for the results when it stops.
const run = document.getElementById("run");
if (run && run.dataset.state === "running") {
  const es = new EventSource(`/lab/${run.dataset.id}/events`);
  es.addEventListener("status", (m) => {
    const s = JSON.parse(m.data);
    const bar = document.getElementById("progress");
    bar.max = s.total;
    bar.value = s.done;
    document.getElementById("progress-text").textContent = `${s.done} of ${s.total} games · ${s.state}`;
    if (s.state !== "running") {
      es.close();
      location.reload();
    }
  });
}
