import { NotBuiltPage } from "../components/NotBuilt";

export function ScansPage() {
  return (
    <NotBuiltPage title="Scans">
      This page will give each skill a static quality score and run a security scan over its files.
    </NotBuiltPage>
  );
}
