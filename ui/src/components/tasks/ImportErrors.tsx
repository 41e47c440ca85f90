type Props = { errors: string[]; lineTestId: string };

/** The tasks of a source that did not import, each with why. */
export function ImportErrors({ errors, lineTestId }: Props) {
  if (errors.length === 0) return null;
  return (
    <>
      <p>Tasks of the source that did not import:</p>
      <ul className="problems">
        {errors.map((error, i) => (
          <li key={i} data-testid={lineTestId}>
            {error}
          </li>
        ))}
      </ul>
    </>
  );
}
