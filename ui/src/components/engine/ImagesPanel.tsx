import { useState } from "react";
import { runToOutcome } from "../../api/jobs";
import type { BaseImage } from "../../bindings/BaseImage";
import { baseImages } from "../../bindings/commands";
import type { JobEvent } from "../../bindings/JobEvent";
import { shortImageId } from "../../lib/engine";
import { useAction } from "../../lib/useAction";
import { useAsync } from "../../lib/useAsync";
import { AsyncView } from "../shared/AsyncView";
import { Badge } from "../shared/Badge";
import { ErrorPanel } from "../shared/ErrorPanel";
import { ProgressBar } from "../shared/ProgressBar";
import { Table, type Column } from "../shared/Table";
import { ImagePull } from "./ImagePull";

/** The base images tasks and harnesses need, their state and id, "Prepare" with progress, and a pull of any image. */
export function ImagesPanel() {
  const [state, reload] = useAsync(baseImages, []);
  const [progress, setProgress] = useState<JobEvent | null>(null);
  const [prepare, runPrepare] = useAction<string[]>();
  const start = (debian: boolean) =>
    runPrepare(async () => {
      try {
        return (await runToOutcome({ kind: "image_preparation", debian }, setProgress)).images;
      } finally {
        reload();
      }
    });
  const busy = prepare.status === "running";
  const columns: Column<BaseImage>[] = [
    { header: "Image", className: "col-nowrap", render: (i) => <code>{i.tag}</code> },
    {
      header: "State",
      className: "col-nowrap",
      render: (i) =>
        i.id ? (
          <span title={i.id}>
            <Badge tone="success">Ready</Badge> <code>{shortImageId(i.id)}</code>
          </span>
        ) : (
          <Badge tone="warning">Missing</Badge>
        ),
    },
    { header: "Needed by", className: "col-description", render: (i) => i.used_by },
    { header: "Made by", className: "col-description", render: (i) => <span className="muted">{i.how}</span> },
  ];
  return (
    <div data-testid="base-images">
      <AsyncView state={state} what="the base images" onRetry={reload}>
        {(images) => (
          <>
            <Table
              columns={columns}
              rows={images}
              rowKey={(i) => i.tag}
              rowAttributes={(i) => ({ "data-testid": "image-row", "data-ready": String(i.id !== null) })}
            />
            <p>
              <button type="button" disabled={busy} onClick={() => void start(false)} data-testid="prepare-busybox">
                Prepare busybox
              </button>{" "}
              <button type="button" disabled={busy} onClick={() => void start(true)} data-testid="prepare-all">
                Prepare all (Debian too)
              </button>
            </p>
          </>
        )}
      </AsyncView>
      {busy && progress && (
        <div data-testid="prepare-progress">
          <ProgressBar done={progress.done} total={progress.total} label="Image preparation" />
          <p className="muted">{progress.message}</p>
        </div>
      )}
      {prepare.status === "done" && (
        <p className="notice notice-success" data-testid="prepare-done">
          Built {prepare.data.length === 1 ? "1 image" : `${prepare.data.length} images`}.
        </p>
      )}
      {prepare.status === "failed" && <ErrorPanel error={prepare.error} testId="prepare-error" />}
      <ImagePull />
    </div>
  );
}
