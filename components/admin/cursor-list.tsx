'use client';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useRouter, useSearchParams } from 'next/navigation';
import type { QueryValue } from '@/lib/api/fetch';
import { api, type CallInput } from '@/lib/api/client';
import type { RouteContract } from '@/lib/api/contract';
import { Button } from '@/components/ui';

/** A keyset-paginated admin list: pages of the contract's route, each fetched with the previous page's next_cursor. */
export function useCursorList<T, K extends string>(
  key: readonly unknown[],
  contract: RouteContract,
  field: K,
  query: Record<string, QueryValue>,
  opts: { enabled?: boolean; params?: Record<string, string> } = {},
) {
  const q = useInfiniteQuery({
    queryKey: [...key, query],
    enabled: opts.enabled ?? true,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam, signal }) =>
      // Typed by the caller's T: the contract here is any list route answering `{[field]: T[], next_cursor}`.
      api.call(contract, { params: opts.params, query: { ...query, cursor: pageParam, limit: 50 } } as unknown as CallInput<RouteContract>, { signal }) as unknown as Promise<
        Record<K, T[]> & { next_cursor: string | null }
      >,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const rows = q.data?.pages.flatMap((p) => p[field]) ?? [];
  return { ...q, rows };
}

export function LoadMore({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-3">
      <Button variant="secondary" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
        Load more
      </Button>
    </div>
  );
}

/** Filters live in the URL, so a filtered view can be linked to and survives a reload. */
export function useUrlFilters<K extends string>(keys: readonly K[]): [Record<K, string>, (next: Partial<Record<K, string>>) => void] {
  const sp = useSearchParams();
  const router = useRouter();
  const values = Object.fromEntries(keys.map((k) => [k, sp.get(k) ?? ''])) as Record<K, string>;
  const set = (next: Partial<Record<K, string>>) => {
    const params = new URLSearchParams(sp.toString());
    for (const [k, v] of Object.entries(next) as Array<[K, string | undefined]>) {
      if (v) params.set(k, v);
      else params.delete(k);
    }
    const qs = params.toString();
    router.replace(qs ? `?${qs}` : '?', { scroll: false });
  };
  return [values, set];
}
