'use client';

import { signOut } from 'next-auth/react';
import { useState } from 'react';
import { Button } from '@/components/ui/button';

export function SignOutButton() {
  const [pending, setPending] = useState(false);
  return (
    <Button
      size="sm"
      variant="ghost"
      pending={pending}
      onClick={() => {
        setPending(true);
        void signOut({ callbackUrl: '/signin' });
      }}
    >
      Sign out
    </Button>
  );
}
