import type { Position } from "../../bindings/Position";
import type { Preference } from "../../bindings/Preference";
import type { Preferred } from "../../bindings/Preferred";

const PREFERRED: Record<Preferred, string> = {
  with: "the with arm",
  without: "the without arm",
  tie: "neither arm (a tie)",
};

/** An answer as the arm it named, in the order it was asked. */
function named(position: Position, withFirst: boolean): string {
  if (position === "tie") return "answered a tie";
  return `named the ${(position === "a") === withFirst ? "with" : "without"} arm`;
}

const because = (reason: string) => (reason === "" ? "" : ` (“${reason}”)`);

/** The judge's preference between a pair's arms: both orders' answers with reasons, who judged, or why there is none. */
export function PreferenceView({ preference: p }: { preference: Preference }) {
  const who = `${p.judge.provider} · ${p.model_reported ?? p.judge.model}, prompt ${p.prompt_version} (sha256 ${p.prompt_sha256.slice(0, 12)}…)`;
  return (
    <section className="panel judgement" data-testid="pair-preference">
      <h3>The judge's preference</h3>
      {p.compared === null ? (
        <p className="notice notice-warning" data-testid="pair-preference-no-score">
          NO SCORE: {p.no_score}
        </p>
      ) : (
        <>
          <p data-testid="pair-preferred" data-preferred={p.compared.preferred}>
            Preferred {PREFERRED[p.compared.preferred]}
            {p.compared.position_flip && " — the judge named the same position in both orders (a position flip)"}.
          </p>
          <ul className="judgement-list">
            <li>
              Without arm shown first: {named(p.compared.without_first, false)}
              {because(p.compared.without_first_reason)}.
            </li>
            <li>
              With arm shown first: {named(p.compared.with_first, true)}
              {because(p.compared.with_first_reason)}.
            </li>
          </ul>
        </>
      )}
      <p className="muted">Compared by {who}.</p>
    </section>
  );
}
