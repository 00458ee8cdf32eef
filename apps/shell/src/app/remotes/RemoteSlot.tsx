import {
  Component,
  lazy,
  Suspense,
  useState,
  type ComponentType,
  type ErrorInfo,
  type ReactNode,
} from 'react';
import { loadRemote } from '@module-federation/enhanced/runtime';
import { Button, Spinner } from '@grove/web-ui';
import type { RemoteName } from '@grove/contracts';
import './remotes.css';

const lazyModules = new Map<string, ComponentType>();

/** One lazy component per remote module and attempt, so a retry really loads again. */
function lazyRemote(id: string, attempt: number): ComponentType {
  const key = `${id}#${attempt}`;
  let component = lazyModules.get(key);
  if (!component) {
    component = lazy(async () => {
      const module = await loadRemote<{ default: ComponentType }>(id);
      if (!module?.default) throw new Error(`${id} has no default export`);
      return { default: module.default };
    });
    lazyModules.set(key, component);
  }
  return component;
}

interface BoundaryProps {
  label: string;
  onRetry: () => void;
  children: ReactNode;
}

/** Catches a remote that fails to load or render, so the rest of the shell keeps working. */
class RemoteErrorBoundary extends Component<BoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(`Grove: the ${this.props.label} failed to load`, error, info.componentStack);
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div className="shell-remote-fallback" role="alert">
        <h2>This part of Grove is not available right now.</h2>
        <p className="g-muted">The rest of Grove still works. Please try again in a moment.</p>
        <Button
          onClick={() => {
            this.setState({ failed: false });
            this.props.onRetry();
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
}

const labels: Record<RemoteName, string> = {
  marketing: 'website',
  dashboard: 'dashboard',
  integrations: 'integrations',
  referral: 'referral page',
};

/**
 * Mounts an exposed module of a remote (e.g. `dashboard/Routes`), with a spinner while it loads
 * and a friendly fallback with "Try again" when the remote is unreachable or throws.
 */
export function RemoteSlot({ remote, module = 'Routes' }: { remote: RemoteName; module?: string }) {
  const [attempt, setAttempt] = useState(0);
  const Remote = lazyRemote(`${remote}/${module}`, attempt);
  return (
    <RemoteErrorBoundary
      key={attempt}
      label={labels[remote]}
      onRetry={() => setAttempt((n) => n + 1)}
    >
      <Suspense fallback={<Spinner label={`Loading the ${labels[remote]}…`} />}>
        <Remote />
      </Suspense>
    </RemoteErrorBoundary>
  );
}
