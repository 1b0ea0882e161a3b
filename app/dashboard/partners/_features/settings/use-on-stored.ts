'use client';

import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { useRouter } from 'next/navigation';
import { useTRPC } from '@/components/trpc/client';
import type { AppRouter } from '@/server/trpc/router';

type Partner = inferRouterOutputs<AppRouter>['partners']['get'];

/** After a change is stored: the cached partner, the partner list and the server-rendered page header follow. */
export function useOnStored(partnerId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  return (next: Partner) => {
    queryClient.setQueryData(trpc.partners.get.queryKey({ partnerId }), next);
    void queryClient.invalidateQueries({ queryKey: trpc.partners.list.queryKey() });
    // The page header is server-rendered: refresh it so it shows the new name or state.
    router.refresh();
  };
}
