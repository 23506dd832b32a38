import { start } from "./start";
import "./styles.css";

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");
start(container, import.meta.env);
