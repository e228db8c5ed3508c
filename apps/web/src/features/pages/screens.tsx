import { PlaceholderPage } from './PlaceholderPage';

/** The signed-in screens that later updates fill in; each already has its route, title and purpose. */
export const RandomTalkOptionsPage = () => (
  <PlaceholderPage
    title="Random talk"
    icon="sparkles"
    purpose="Meet a random verified student by voice, video or text."
  />
);
export const RandomAudioPage = () => (
  <PlaceholderPage title="Random audio call" icon="sparkles" purpose="A voice call with a random student." />
);
export const RandomVideoPage = () => (
  <PlaceholderPage title="Random video call" icon="sparkles" purpose="A video call with a random student." />
);
export const RandomChatPage = () => (
  <PlaceholderPage title="Random chat" icon="chat" purpose="A text chat with a random student." />
);
export const FocusedTalkPage = () => (
  <PlaceholderPage
    title="Focused talk"
    icon="sparkles"
    purpose="Talk with students who match your filters."
  />
);
export const FocusedTalkOptionsPage = () => (
  <PlaceholderPage
    title="Focused talk options"
    icon="sparkles"
    purpose="Choose who you would like to meet."
  />
);
