/** Mounts the console. The API is the server that served it (same origin: the session cookie). */
import { render } from "preact";
import { createServices, Services } from "./api/query-hooks.js";
import { App } from "./app/app.js";
import "./styles.css";
// The graph's few rules load with the app: a chunk with styles would need Vite's preload helper in the first screen.
import "./graph/flow-graph.css";

const services = createServices(
  document.querySelector<HTMLMetaElement>('meta[name="openkyt-api"]')?.content ?? "",
);
const root = document.getElementById("app");
if (root) {
  render(
    <Services.Provider value={services}>
      <App />
    </Services.Provider>,
    root,
  );
}
