#pragma once
// Owning pointers to libnats objects, each freed by its own library call, so that every
// early return frees what it holds. One list for the folder.
#include <nats/nats.h>

#include <memory>

namespace nats_jetstream {

template <auto kFree>
struct LibraryFree {
  template <typename T>
  void operator()(T* object) const {
    kFree(object);
  }
};

// A subscription is unsubscribed (the servers forget an ephemeral consumer) before it is freed.
inline void unsubscribe_and_destroy(natsSubscription* subscription) {
  natsSubscription_Unsubscribe(subscription);
  natsSubscription_Destroy(subscription);
}

using MsgPtr = std::unique_ptr<natsMsg, LibraryFree<&natsMsg_Destroy>>;
using PubAckPtr = std::unique_ptr<jsPubAck, LibraryFree<&jsPubAck_Destroy>>;
using StreamInfoPtr = std::unique_ptr<jsStreamInfo, LibraryFree<&jsStreamInfo_Destroy>>;
using SubscriptionPtr = std::unique_ptr<natsSubscription, LibraryFree<&unsubscribe_and_destroy>>;
using KvEntryPtr = std::unique_ptr<kvEntry, LibraryFree<&kvEntry_Destroy>>;
using ConsumerInfoPtr = std::unique_ptr<jsConsumerInfo, LibraryFree<&jsConsumerInfo_Destroy>>;
using MsgMetaDataPtr = std::unique_ptr<jsMsgMetaData, LibraryFree<&jsMsgMetaData_Destroy>>;

}  // namespace nats_jetstream
