import type { Chart } from "../../bindings/Chart";

/** One chart; its SVG is generated and escaped by the back end. */
export function ChartFigure({ chart: { title, svg } }: { chart: Chart }) {
  return (
    <figure className="chart" data-testid="chart" data-title={title}>
      <div className="chart-svg" dangerouslySetInnerHTML={{ __html: svg }} />
      <figcaption>{title}</figcaption>
    </figure>
  );
}
