export { EventBus, type EventPublisher, type NewDomainEvent } from './event-bus.ts';
export { defineListener, type Listener, type ListenerContext } from './listener.ts';
