export { EventBus, type EventPublisher, type NewDomainEvent } from './event-bus.ts';
export { defineListener, relevantWhere, type Listener, type ListenerContext } from './listener.ts';
export { collectAfterCommit, registerRequestAfterCommit, runDeferred } from './after-commit.ts';
