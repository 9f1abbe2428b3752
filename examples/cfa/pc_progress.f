G F "consumer.check"
