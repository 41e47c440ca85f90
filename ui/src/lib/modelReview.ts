import { formReader, type Parsed } from "./forms";

/** The provider and model of a model review, both required. */
export function parseModelReview(provider: string, model: string): Parsed<{ provider: string; model: string }> {
  const r = formReader();
  r.check(provider.trim() !== "", "Pick a model provider (add one in Settings).");
  r.check(model.trim() !== "", "Name the model that reviews, e.g. the one your agent configurations use.");
  return r.done({ provider: provider.trim(), model: model.trim() });
}
