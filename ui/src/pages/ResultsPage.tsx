import { useEffect, useMemo, useState } from "react";
import {
  experimentCharts,
  experimentPairs,
  experimentResults,
  getVersion,
  listExperiments,
} from "../bindings/commands";
import { useQueueEvents } from "../api/queue";
import type { ExperimentResults } from "../bindings/ExperimentResults";
import type { ExperimentView } from "../bindings/ExperimentView";
import type { PairView } from "../bindings/PairView";
import { BundleImport } from "../components/experiments/BundleImport";
import { ChartsSection } from "../components/experiments/ChartsSection";
import { ExperimentActions } from "../components/experiments/ExperimentActions";
import { ExperimentExports } from "../components/experiments/ExperimentExports";
import { ExperimentForm } from "../components/experiments/ExperimentForm";
import { OriginNote } from "../components/experiments/ExperimentOrigin";
import { ExperimentsTable } from "../components/experiments/ExperimentsTable";
import { JudgeCalibration } from "../components/experiments/JudgeCalibration";
import { MeasuresSection } from "../components/experiments/MeasuresSection";
import { MeasureHeatmap } from "../components/experiments/MeasureHeatmap";
import { PairsTable } from "../components/experiments/PairsTable";
import { ResultsSummary } from "../components/experiments/ResultsSummary";
import { SkillResultsTable } from "../components/experiments/SkillResultsTable";
import { AsyncView } from "../components/shared/AsyncView";
import { EmptyState } from "../components/shared/EmptyState";
import { ErrorPanel } from "../components/shared/ErrorPanel";
import type { CloneSource } from "../lib/experimentClone";
import { skillVersionIds } from "../lib/experiments";
import { notifyWhenDone } from "../lib/notify";
import { resultsHref, runsHref } from "../lib/route";
import { throttle } from "../lib/throttle";
import { useAsync } from "../lib/useAsync";

/** At most one reload per this many ms while the queue reports trial changes. */
const REFRESH_MS = 3000;

/** The selected experiment's statistics and every pair behind them. */
type Evidence = { results: ExperimentResults; pairs: PairView[] };

async function loadEvidence(id: number): Promise<Evidence> {
  const [results, pairs] = await Promise.all([experimentResults(id), experimentPairs(id)]);
  return { results, pairs };
}

/** The library id of each skill the pairs tested, by the name its statistics use. */
async function loadSkillIds(pairs: PairView[]): Promise<Map<string, number>> {
  const tested = skillVersionIds(pairs);
  const versions = await Promise.all(tested.map(([, versionId]) => getVersion(versionId)));
  return new Map(tested.map(([name], i) => [name, versions[i].skill_id]));
}

/** Paired experiments: each one's progress, and the selected one's statistics and pairs, kept current as trials finish. */
export function ResultsPage({ experimentId }: { experimentId: number | null }) {
  const [entries, reloadEntries] = useAsync(listExperiments, []);
  const [results, reloadResults] = useAsync(
    () => (experimentId === null ? Promise.resolve(null) : loadEvidence(experimentId)),
    [experimentId],
  );
  const throttled = useMemo(
    () =>
      throttle(() => {
        reloadEntries();
        reloadResults();
      }, REFRESH_MS),
    [reloadEntries, reloadResults],
  );
  useEffect(() => throttled.cancel, [throttled]);
  const [clone, setClone] = useState<CloneSource | null>(null);
  /** Opens an experiment queued from this page (the form or a re-run) and tells when it finishes. */
  const opened = (id: number) => {
    notifyWhenDone(id);
    reloadEntries();
    window.location.hash = resultsHref(id);
  };
  const eventError = useQueueEvents((event) => event.type === "trial" && throttled.schedule());
  // With none chosen, the newest experiment opens (a new workspace's demo, for a newcomer).
  useEffect(() => {
    if (experimentId === null && entries.status === "ready" && entries.data.length > 0) {
      window.location.replace(resultsHref(entries.data[0].id));
    }
  }, [experimentId, entries]);

  return (
    <div className="results-page" data-testid="results-page">
      <header className="page-header">
        <h1>Results</h1>
      </header>
      {eventError && <ErrorPanel error={eventError} testId="queue-events-error" />}
      <AsyncView state={entries} what="the experiments" onRetry={reloadEntries}>
        {(list) => {
          const selected = list.find((e) => e.id === experimentId);
          return (
            <>
              <section className="panel">
                <h2>Experiments</h2>
                <ExperimentsTable experiments={list} selectedId={experimentId} />
                <BundleImport
                  onImported={(id) => {
                    reloadEntries();
                    window.location.hash = resultsHref(id);
                  }}
                />
              </section>
              {selected ? (
                <AsyncView state={results} what="the statistics" onRetry={reloadResults}>
                  {(data) =>
                    data && (
                      <Selected
                        experiment={selected}
                        evidence={data}
                        onClone={setClone}
                        onQueued={opened}
                        onJudged={reloadResults}
                      />
                    )
                  }
                </AsyncView>
              ) : experimentId !== null ? (
                <EmptyState title={`There is no experiment with id ${experimentId}.`}>
                  Pick an experiment from the list.
                </EmptyState>
              ) : (
                list.length > 0 && <EmptyState title="Select an experiment to see its results." />
              )}
            </>
          );
        }}
      </AsyncView>
      <ExperimentForm onCreated={opened} clone={clone} />
    </div>
  );
}

type SelectedProps = {
  experiment: ExperimentView;
  evidence: Evidence;
  onClone: (source: CloneSource) => void;
  onQueued: (experimentId: number) => void;
  onJudged: () => void;
};

function Selected({ experiment, evidence: { results, pairs }, onClone, onQueued, onJudged }: SelectedProps) {
  // Charts change only when another pair is scored; the skills tested never change.
  const [charts, reloadCharts] = useAsync(() => experimentCharts(experiment.id), [experiment.id, results.pairs_scored]);
  const [skillIds, reloadSkillIds] = useAsync(() => loadSkillIds(pairs), [experiment.id]);
  const unfinished = experiment.pairs_finished < experiment.pairs;
  // Followed from here on, so that its end is told even once another page is shown.
  useEffect(() => {
    if (unfinished) notifyWhenDone(experiment.id);
  }, [experiment.id, unfinished]);
  return (
    <div data-testid="experiment-results" data-experiment-id={experiment.id}>
      <header className="panel-header">
        <h2>{experiment.name}</h2>
        <a href={runsHref(experiment.run_id)}>Open its trials on the Runs page</a>
      </header>
      <OriginNote provenance={experiment.provenance} />
      <ExperimentActions
        key={experiment.id}
        experiment={experiment}
        pairs={pairs}
        onClone={onClone}
        onQueued={onQueued}
        onJudged={onJudged}
      />
      <ExperimentExports experimentId={experiment.id} />
      <ResultsSummary results={results} pairs={pairs} runId={experiment.run_id} />
      <MeasureHeatmap
        report={results.report}
        categories={results.categories}
        pairs={pairs}
        charts={charts.status === "ready" ? charts.data : []}
        experimentId={experiment.id}
      />
      {skillIds.status === "error" && <ErrorPanel error={skillIds.error} onRetry={reloadSkillIds} />}
      <SkillResultsTable report={results.report} skillIds={skillIds.status === "ready" ? skillIds.data : new Map()} />
      <ChartsSection state={charts} onRetry={reloadCharts} />
      <MeasuresSection key={experiment.id} experimentId={experiment.id} />
      <JudgeCalibration experiment={experiment} />
      <PairsTable pairs={pairs} runId={experiment.run_id} />
    </div>
  );
}
