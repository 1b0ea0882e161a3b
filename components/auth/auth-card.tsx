import type { ReactNode } from 'react';

/** The staff pages outside the dashboard (sign-in, first setup, accepting an invitation): one card. */
export function StaffAuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="auth-page">
      <div className="auth-card">
        <p className="brand auth-brand">
          Encore <span className="brand-tag">Staff</span>
        </p>
        <h1 className="auth-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}
