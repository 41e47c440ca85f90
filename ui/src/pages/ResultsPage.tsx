import { NotBuiltPage } from "../components/NotBuilt";

export function ResultsPage() {
  return (
    <NotBuiltPage title="Results">
      This page will compare paired evaluation results of each task run with and without a skill.
    </NotBuiltPage>
  );
}
