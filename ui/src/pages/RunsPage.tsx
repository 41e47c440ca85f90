import { NotBuiltPage } from "../components/NotBuilt";

export function RunsPage() {
  return (
    <NotBuiltPage title="Runs">
      This page will show the queue of evaluation runs executing in Docker containers.
    </NotBuiltPage>
  );
}
