/** A chart of an experiment as the back end renders it: its title and an SVG document. */
export type Chart = [title: string, svg: string];
