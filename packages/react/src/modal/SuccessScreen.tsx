/** Shown briefly after the code was accepted, before the modal closes itself. */
export function SuccessScreen({ title = "You're logged in" }: { title?: string }) {
  return (
    <div className="symbolon-success" role="status">
      <span className="symbolon-check" aria-hidden="true">
        ✓
      </span>
      <h2 className="symbolon-title">{title}</h2>
    </div>
  );
}
