'use client';

import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@/server/trpc/router';

/** `useTRPC()` gives typed query/mutation options for every dashboard procedure. */
export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
