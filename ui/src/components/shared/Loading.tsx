export function Loading({ what }: { what: string }) {
  return (
    <p className="muted loading" role="status">
      Loading {what}…
    </p>
  );
}
