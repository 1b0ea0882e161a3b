/** What the last change did ("Banner created."), announced to screen readers; nothing before one. */
export function DoneStatus({ done }: { done: string | null }) {
  return done ? (
    <p role="status" className="card-body">
      {done}
    </p>
  ) : null;
}
