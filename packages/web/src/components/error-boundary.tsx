import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** What shows instead of `children` once they failed; `retry` renders them again. */
  fallback: (retry: () => void) => ReactNode;
  /** Called when the children are given another try (by `retry` or the browser coming back online). */
  onRetry?: () => void;
  children: ReactNode;
}

/**
 * Keeps a failure inside one part of a screen: a lazily loaded chunk that did not arrive (the
 * network dropped) or a render that threw shows `fallback` there, never the router's error page in
 * place of the whole area. Tries again by itself when the browser comes back online.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: unknown) {
    console.warn('Part of the page failed to show', error);
  }

  override componentDidMount() {
    window.addEventListener('online', this.retry);
  }

  override componentWillUnmount() {
    window.removeEventListener('online', this.retry);
  }

  retry = () => {
    if (!this.state.failed) return;
    this.props.onRetry?.();
    this.setState({ failed: false });
  };

  override render() {
    return this.state.failed ? this.props.fallback(this.retry) : this.props.children;
  }
}
