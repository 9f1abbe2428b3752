"st.full"
