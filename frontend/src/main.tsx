import "@fontsource-variable/inter";
import "./styles.css";
import React from "react";
import { createRoot } from "react-dom/client";
import App from "./App";
import { markStartup } from "./lib/bench";
import { prefetchLibrary } from "./library";

markStartup("script start"); // the whole bundle has been fetched, parsed and evaluated
prefetchLibrary();

createRoot(document.getElementById("root")!).render(
  <React.StrictMode>
    <App />
  </React.StrictMode>,
);
