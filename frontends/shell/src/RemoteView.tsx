// Draws one module of a remote inside the shell. A remote that cannot be fetched (server down, files
// missing, chunk error) or that throws while rendering is contained here: the rest of the shell keeps
// working and the area offers a Retry.
import {
  Component,
  Suspense,
  lazy,
  useState,
  type ComponentType,
  type ErrorInfo,
  type LazyExoticComponent,
  type ReactNode,
} from 'react';
import { ErrorState, Skeleton, Spinner } from '@shop/ui';
import {
  loadRemoteComponent,
  remoteAreaNames,
  remoteOf,
  resetRemote,
  type RemoteModuleId,
  type RemoteModules,
} from './remotes.js';

type AnyComponent = ComponentType<Record<string, unknown>>;

// One lazy component per module, kept while it works; dropped on failure so a later visit tries again.
const lazyModules = new Map<RemoteModuleId, LazyExoticComponent<AnyComponent>>();
// Modules loaded before the first render (preloadRemoteModule): drawn at once, without suspending, so the
// first render replaces the HTML's first paint with the page itself rather than a loading placeholder.
const preloadedModules = new Map<RemoteModuleId, AnyComponent>();

/** Loads a module ahead of its first render; a failure is left to RemoteView (it shows the error and Retry). */
export async function preloadRemoteModule(id: RemoteModuleId): Promise<void> {
  try {
    preloadedModules.set(id, (await loadRemoteComponent(id)) as AnyComponent);
  } catch {
    // RemoteView loads it again and reports the error where the page would be.
  }
}

function lazyModule(id: RemoteModuleId): LazyExoticComponent<AnyComponent> {
  let cached = lazyModules.get(id);
  if (!cached) {
    cached = lazy(async () => {
      try {
        return { default: (await loadRemoteComponent(id)) as AnyComponent };
      } catch (error) {
        lazyModules.delete(id);
        resetRemote(remoteOf(id));
        throw error;
      }
    });
    lazyModules.set(id, cached);
  }
  return cached;
}

interface BoundaryProps {
  areaName: string;
  onRetry: () => void;
  children: ReactNode;
}

interface BoundaryState {
  error: Error | null;
}

class RemoteErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`The ${this.props.areaName} failed to load or render`, error, info.componentStack);
  }

  render() {
    const { error } = this.state;
    if (error) {
      const title = `The ${this.props.areaName} could not be loaded`;
      return (
        <div className="mx-auto w-full max-w-2xl px-4 py-16" data-remote-error>
          <ErrorState
            title={title}
            message={
              <>
                <p>
                  {`The ${this.props.areaName} could not be loaded right now. The rest of the site still works; check your connection and try again.`}
                </p>
                <p className="mt-2 font-mono text-xs text-khaki-300">{error.message}</p>
              </>
            }
            onRetry={() => {
              this.setState({ error: null });
              this.props.onRetry();
            }}
          />
        </div>
      );
    }
    return this.props.children;
  }
}

function RemoteLoading({ areaName }: { areaName: string }) {
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6 px-4 py-12" aria-busy="true">
      <div className="flex items-center gap-3 text-khaki-200">
        <Spinner label={`Loading the ${areaName}`} />
        <span>{`Loading the ${areaName}...`}</span>
      </div>
      <Skeleton className="h-10 w-2/3" />
      <div className="grid gap-4 md:grid-cols-3">
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
        <Skeleton className="h-40" />
      </div>
    </div>
  );
}

type PropsOf<K extends RemoteModuleId> = RemoteModules[K] extends ComponentType<infer P> ? P : never;

export type RemoteViewProps<K extends RemoteModuleId> = { module: K } & (Record<never, never> extends PropsOf<K>
  ? { props?: PropsOf<K> }
  : { props: PropsOf<K> });

export function RemoteView<K extends RemoteModuleId>({ module, props }: RemoteViewProps<K>) {
  const [attempt, setAttempt] = useState(0);
  const areaName = remoteAreaNames[remoteOf(module)];
  // Looked up here, outside the Suspense boundary, where the render is kept: a component that suspends
  // on its first mount loses its state, so a lookup inside it would start a new fetch on every failure.
  // lazyModule keeps one lazy component per module (the same one on every render).
  const View = preloadedModules.get(module) ?? lazyModule(module);
  return (
    <RemoteErrorBoundary key={`${module}#${attempt}`} areaName={areaName} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<RemoteLoading areaName={areaName} />}>
        {/* eslint-disable-next-line react-hooks/static-components -- one component per module id, cached in lazyModules or preloadedModules */}
        <View {...(props ?? {})} />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
