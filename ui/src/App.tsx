import { useState } from "react";
import { EmptyState } from "./components/shared/EmptyState";
import { activeSection, sectionHref, type Route, type Section } from "./lib/route";
import { NO_FILTER, type SkillFilter } from "./lib/skillFilter";
import { useHashRoute } from "./lib/useHashRoute";
import { LibraryPage } from "./pages/LibraryPage";
import { PairPage } from "./pages/PairPage";
import { ResultsPage } from "./pages/ResultsPage";
import { RunsPage } from "./pages/RunsPage";
import { ScansPage } from "./pages/ScansPage";
import { SettingsPage } from "./pages/SettingsPage";
import { SkillPage } from "./pages/SkillPage";
import { TasksPage } from "./pages/TasksPage";
import { TrajectoriesPage } from "./pages/TrajectoriesPage";

const NAV: [Section, string][] = [
  ["library", "Library"],
  ["tasks", "Tasks"],
  ["scans", "Scans"],
  ["runs", "Runs"],
  ["results", "Results"],
  ["trajectories", "Trajectories"],
  ["settings", "Settings"],
];

export function App() {
  const route = useHashRoute();
  // Lives here so that the library search survives a visit to a skill page.
  const [libraryFilter, setLibraryFilter] = useState(NO_FILTER);
  const active = activeSection(route);

  return (
    <div className="app">
      <aside className="sidebar">
        <div className="brand">Skillscope</div>
        <nav>
          {NAV.map(([section, label]) => (
            <a
              key={section}
              href={sectionHref(section)}
              data-testid={`nav-${section}`}
              className={section === active ? "nav-link active" : "nav-link"}
              aria-current={section === active ? "page" : undefined}
            >
              {label}
            </a>
          ))}
        </nav>
      </aside>
      <main className="content">
        <Page route={route} libraryFilter={libraryFilter} onLibraryFilterChange={setLibraryFilter} />
      </main>
    </div>
  );
}

type PageProps = {
  route: Route;
  libraryFilter: SkillFilter;
  onLibraryFilterChange: (filter: SkillFilter) => void;
};

function Page({ route, libraryFilter, onLibraryFilterChange }: PageProps) {
  switch (route.page) {
    case "library":
      return <LibraryPage filter={libraryFilter} onFilterChange={onLibraryFilterChange} />;
    case "skill":
      return <SkillPage id={route.id} tab={route.tab} />;
    case "tasks":
      return <TasksPage id={route.id} />;
    case "scans":
      return <ScansPage selectedId={route.skillId} />;
    case "runs":
      return <RunsPage runId={route.runId} trialId={route.trialId} stepId={route.stepId} />;
    case "results":
      return <ResultsPage experimentId={route.experimentId} />;
    case "trajectories":
      return <TrajectoriesPage id={route.id} stepId={route.stepId} />;
    case "pair":
      return <PairPage experimentId={route.experimentId} pairId={route.pairId} />;
    case "settings":
      return <SettingsPage />;
    case "unknown":
      return (
        <EmptyState title={`There is no page at "${route.hash}".`}>
          <a href={sectionHref("library")}>Go to the Library</a>
        </EmptyState>
      );
  }
}
