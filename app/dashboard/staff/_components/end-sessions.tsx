'use client';

import { useMutation } from '@tanstack/react-query';
import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useTRPC } from '@/components/trpc/client';

/**
 * "Sign out everywhere" for a member: every session of theirs ends on the server at once. On one's own
 * row this session ends too, so the browser signs out after.
 */
export function EndSessionsButton({ member, self }: { member: { id: string; email: string }; self: boolean }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const end = useMutation(
    trpc.staff.endSessions.mutationOptions({
      onSuccess: () => {
        setOpen(false);
        if (self) void signOut({ callbackUrl: '/signin' });
      },
    }),
  );
  return (
    <>
      <Button
        size="sm"
        variant="ghost"
        aria-label={self ? 'Sign out everywhere' : `End the sessions of ${member.email}`}
        onClick={() => {
          end.reset();
          setOpen(true);
        }}
      >
        {self ? 'Sign out everywhere' : 'End sessions'}
      </Button>
      <ConfirmDialog
        open={open}
        title={self ? 'Sign out everywhere?' : `End every session of ${member.email}?`}
        description={
          <p>
            {self
              ? 'Every browser signed in as you is signed out at once, this one too.'
              : 'They are signed out on every browser at once and can sign in again with their password.'}
          </p>
        }
        confirmLabel={self ? 'Sign out everywhere' : 'End sessions'}
        pendingLabel="Ending…"
        pending={end.isPending}
        error={end.error}
        onCancel={() => setOpen(false)}
        onConfirm={() => end.mutate({ staffId: member.id })}
      />
    </>
  );
}
