import { useState } from "react";
import type { EngineState } from "../../bindings/EngineState";
import { EnginePanel } from "../engine/EnginePanel";
import { ImagesPanel } from "../engine/ImagesPanel";

/** Settings → Engine and images: the engine's state with its fix, then (once it runs) the base images. */
export function EngineSection() {
  const [engine, setEngine] = useState<EngineState | null>(null);
  return (
    <section className="panel" data-testid="engine-section">
      <h2>Engine and images</h2>
      <EnginePanel onChecked={(s) => setEngine(s.state)} />
      {engine === "running" && <ImagesPanel />}
    </section>
  );
}
